/**
 * A file field that speaks the language shown: antd's Upload around a button of our own words, where the
 * browser's own file input shows 'Choose File' and 'No file chosen' in the browser's language whatever the
 * page's. Nothing is sent from here: the file picked is handed to the form (`onPick`), which checks and sends it.
 * The field's label (`id`) names the file input, so a label's click opens the picker as before; the button is
 * the one keyboard stop and says the file chosen beside it.
 */
import { Button, Typography, Upload } from 'antd';

export interface FilePickerProps {
  /** The file input's id, which the field's label points at. */
  id: string;
  accept: string;
  /** The file picked, or null. */
  file: File | null;
  onPick(file: File): void;
  /** The button's words ('Choose a PDF') and what is said when nothing is picked yet. */
  chooseLabel: string;
  noneLabel: string;
  disabled?: boolean;
  /** The id of a hint under the field, read with the button. */
  describedBy?: string;
}

export function FilePicker(props: FilePickerProps) {
  const nameId = `${props.id}-chosen`;
  return (
    <div className='file-picker'>
      <Upload
        id={props.id}
        accept={props.accept}
        disabled={props.disabled}
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          props.onPick(file);
          return false;
        }}
      >
        {/* No icon: antd's names itself 'upload', which would put a second 'Upload' in the dialog's buttons. */}
        <Button
          disabled={props.disabled}
          aria-describedby={[nameId, props.describedBy].filter(Boolean).join(' ')}
        >
          {props.chooseLabel}
        </Button>
      </Upload>
      <Typography.Text id={nameId} className='file-picker-name'>
        {props.file ? props.file.name : props.noneLabel}
      </Typography.Text>
    </div>
  );
}
